import { createContext } from "preact"
import { useContext } from "preact/hooks"

export interface Customer {
  readonly id: number
  readonly name: string
  readonly email: string
  readonly company: string | null
  readonly email_verified: boolean
  readonly plan_code: string
  readonly plan_name: string
  readonly created_at: string
  readonly trial_ends_at: string | null
  readonly subscription_ends_at: string | null
  readonly subscription_status: string
}

export interface SessionState {
  readonly customer: Customer | null
  readonly setCustomer: (c: Customer | null) => void
  readonly refresh: () => Promise<void>
}

export const SessionContext = createContext<SessionState>({ customer: null, setCustomer: () => undefined, refresh: async () => undefined })
export const useSession = () => useContext(SessionContext)
