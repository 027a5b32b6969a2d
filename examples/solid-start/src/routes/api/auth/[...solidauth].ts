// Every auth route under /api/auth: sign-in and sign-out pages, the callbacks, /session, /csrf, /providers.
import { SolidAuth } from "gatehouse/solid-start"
import { authConfig } from "../../../auth"

export const { GET, POST } = SolidAuth(authConfig)
