/** What the portal's server answers and its pages show, written once for both. */

/** SPEC §2.9 Customer as the portal shows it, with its plan's code and name. */
export interface CustomerView {
  readonly id: number
  readonly name: string
  readonly email: string
  readonly company: string | null
  readonly email_verified: boolean
  readonly is_active: boolean
  readonly plan_id: number
  readonly plan_code: string
  readonly plan_name: string
  readonly created_at: string
  readonly trial_ends_at: string | null
  readonly subscription_ends_at: string | null
  readonly subscription_status: string
}
