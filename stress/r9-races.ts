// R9 races: 100 parallel callbacks carrying one code and state must make one session; 20 parallel first sign-ins
// of one IdP account (20 browsers, 20 codes) must make one user and one account; one magic link opened 100 times at
// once (a mail scanner, a double click, a forwarded mail) must make one session.
import { databaseBackend, startApp } from "./lib/app.js"
import { emailLink, oauthFinish, oauthStart, sessionCookieOf, signedIn } from "./lib/flows.js"
import { Client, Jar } from "./lib/http.js"
import { opOption, startOp } from "./lib/op.js"
import { type RunContext, type RunResult, check } from "./lib/report.js"
import { SECRET } from "./r1-load.js"

export async function runR9(_ctx: RunContext): Promise<RunResult> {
  const op = await startOp()
  const app = await startApp({
    strategy: "database",
    db: databaseBackend(),
    poolMax: 10,
    secrets: [SECRET],
    op: opOption(op),
    email: true,
  })
  const client = new Client(app.origin, 128, 20_000)
  try {
    // 1. One browser's callback replayed 100 times at once (same code, same state and check cookies).
    const jar = new Jar()
    const path = await oauthStart(client, jar, op, "r9-replayed")
    const replies = await Promise.all(Array.from({ length: 100 }, () => oauthFinish(client, jar.clone(), path)))
    const sessionsIssued = replies.filter((r) => sessionCookieOf(r)?.kind === "set").length
    const replayBad = replies.filter((r) => r.status !== 302).length
    const afterReplay = await app.invariants()

    // 2. Twenty browsers sign in for the first time with the same IdP account, callbacks at once.
    const jars = Array.from({ length: 20 }, () => new Jar())
    const paths = await Promise.all(jars.map((j) => oauthStart(client, j, op, "r9-first")))
    const firsts = await Promise.all(jars.map((j, i) => oauthFinish(client, j, paths[i] as string)))
    const firstOk = firsts.filter((r) => signedIn(r, app.origin)).length
    const firstBad = firsts.filter((r) => r.status !== 302).length
    const afterFirst = await app.invariants()

    // 3. One magic link opened 100 times at once, each from a browser of its own (no cookies shared).
    const takeMail = (email: string) => app.call<string | null>({ cmd: "takeMail", email })
    const mailed = await emailLink(client, new Jar(), takeMail, "r9-link@stress.test")
    if (!mailed.path)
      throw new Error(`POST /auth/signin/email answered ${mailed.res.status} ${mailed.res.location ?? ""}, no link`)
    const linkPath = mailed.path
    const uses = await Promise.all(Array.from({ length: 100 }, () => client.send("GET", linkPath, { jar: new Jar() })))
    const linkSignedIn = uses.filter((r) => signedIn(r, app.origin)).length
    const linkCookies = uses.filter((r) => sessionCookieOf(r)?.kind === "set").length
    const linkRefused = uses.filter(
      (r) => r.status === 302 && r.location === `${app.origin}/auth/error?error=Verification`,
    ).length
    const linkBad = uses.filter((r) => r.status !== 302).length
    const inv = await app.invariants()
    const rowsLeft = await app.call<{ verificationTokens: number }>({ cmd: "rowCounts" })
    const linkSessions = inv.sessions - afterFirst.sessions
    const linkUsers = inv.users - afterFirst.users
    const s = await app.stats()
    const users = afterFirst.usersOf?.["r9-first"] ?? 0
    const accountsFirst = afterFirst.accounts - afterReplay.accounts
    const sessionsFirst = afterFirst.sessions - afterReplay.sessions
    return {
      id: "R9",
      title: "races",
      tables: [
        {
          head: ["race", "parallel", "signed in", "session rows", "users", "accounts", "non-302 answers"],
          rows: [
            [
              "one code/state, 100 callbacks",
              100,
              sessionsIssued,
              afterReplay.sessions,
              afterReplay.users,
              afterReplay.accounts,
              replayBad,
            ],
            ["one IdP account, 20 first sign-ins", 20, firstOk, sessionsFirst, users, accountsFirst, firstBad],
            ["one magic link, 100 uses", 100, linkSignedIn, linkSessions, linkUsers, "-", linkBad],
          ],
        },
      ],
      checks: [
        check(
          "R9 one session from 100 parallel callbacks with one code/state",
          sessionsIssued === 1 && afterReplay.sessions === 1,
          `${sessionsIssued} cookies, ${afterReplay.sessions} rows`,
        ),
        check(
          "R9 20 parallel first sign-ins: 1 user, 1 account",
          users === 1 && accountsFirst === 1,
          `${users} user(s), ${accountsFirst} account(s)`,
        ),
        check(
          "R9 20 parallel first sign-ins: every browser signed in, one session row each",
          firstOk === 20 && sessionsFirst === 20,
          `${firstOk} signed in, ${sessionsFirst} rows`,
        ),
        check("R9 unexpected statuses", replayBad + firstBad + linkBad === 0, replayBad + firstBad + linkBad),
        check(
          "R9 orphan rows / duplicates",
          inv.sessionsWithoutUser + inv.accountsWithoutUser + inv.duplicateUsers + inv.duplicateAccounts === 0,
          `${inv.sessionsWithoutUser} / ${inv.accountsWithoutUser} / ${inv.duplicateUsers} / ${inv.duplicateAccounts}`,
        ),
        check(
          "R9 unhandled rejections / uncaught exceptions",
          s.unhandledRejections + s.uncaughtExceptions === 0,
          s.unhandledRejections + s.uncaughtExceptions,
        ),
        check(
          "R9 one session from 100 parallel uses of one magic link",
          linkSignedIn === 1 &&
            linkCookies === 1 &&
            linkSessions === 1 &&
            linkUsers === 1 &&
            linkRefused === 99 &&
            rowsLeft.verificationTokens === 0,
          `${linkSignedIn} signed in, ${linkCookies} cookies, ${linkSessions} session rows, ${linkUsers} user(s), ${linkRefused} refused (Verification), ${rowsLeft.verificationTokens} token rows left`,
        ),
      ],
      notes: [`${app.backend}; one app process (the cross-process race is test/scale-out.test.ts).`],
    }
  } finally {
    client.close()
    await app.stop()
    await op.stop()
  }
}
