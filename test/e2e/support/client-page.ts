// Browser entry of the /client/* test pages: gatehouse/client on window, nothing else.
import * as client from "../../../src/client/index.js"
import "./page-globals.js"

window.gatehouse = client
document.body.dataset.ready = "1"
