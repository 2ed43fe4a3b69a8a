import { createContext } from "preact"
import { useContext } from "preact/hooks"
import type { CustomerView } from "../../shared/portal/views.js"

export type Customer = CustomerView

export interface SessionState {
  readonly customer: Customer | null
  readonly setCustomer: (c: Customer | null) => void
  readonly refresh: () => Promise<void>
}

export const SessionContext = createContext<SessionState>({
  customer: null,
  setCustomer: () => undefined,
  refresh: async () => undefined
})
export const useSession = () => useContext(SessionContext)
