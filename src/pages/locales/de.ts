// German strings of the built-in pages.
import type { PageLocale } from "./types.js"

const differentAccount = "Versuchen Sie, sich mit einem anderen Konto anzumelden."

export const de: PageLocale = {
  lang: "de",
  signIn: {
    title: "Anmelden",
    heading: "Anmelden",
    headingWithBrand: "Bei {brand} anmelden",
    withProvider: "Mit {provider} anmelden",
    or: "oder",
    emailLabel: "E-Mail",
    passkeyEmailLabel: "E-Mail für Ihren Passkey",
    emailPlaceholder: "sie@beispiel.de",
    passkeySignIn: "Mit Passkey anmelden",
    createPasskey: "Passkey erstellen",
    createPasskeyHint: "Ihr Gerät speichert einen neuen Passkey für dieses Konto.",
    continue: "Weiter",
    showPassword: "Anzeigen",
    hidePassword: "Verbergen",
    showPasswordLabel: "Passwort anzeigen",
    hidePasswordLabel: "Passwort verbergen",
    providerNames: { email: "E-Mail", credentials: "Zugangsdaten" },
    errors: {
      Signin: differentAccount,
      OAuthSignin: differentAccount,
      OAuthCallbackError: differentAccount,
      OAuthCreateAccount: differentAccount,
      EmailCreateAccount: differentAccount,
      Callback: differentAccount,
      OAuthAccountNotLinked:
        "Um Ihre Identität zu bestätigen, melden Sie sich mit demselben Konto an wie beim ersten Mal.",
      EmailSignin:
        "Die Anmelde-E-Mail konnte nicht gesendet werden. Prüfen Sie die Adresse und versuchen Sie es erneut.",
      Verification: "Der Anmeldelink ist nicht mehr gültig. Er wurde vielleicht schon benutzt oder ist abgelaufen.",
      RateLimited: "Zu viele Anmeldeversuche. Warten Sie einen Moment und versuchen Sie es dann erneut.",
      CredentialsSignin: "Die Anmeldung ist fehlgeschlagen. Prüfen Sie, ob Ihre Angaben stimmen.",
      SessionRequired: "Bitte melden Sie sich an, um diese Seite zu sehen.",
      WebAuthnVerificationError:
        "Der Passkey konnte nicht geprüft werden. Versuchen Sie es erneut oder wählen Sie eine andere Anmeldeart.",
      MissingCSRF: "Das Formular ist abgelaufen. Bitte versuchen Sie es erneut.",
    },
    defaultError: "Die Anmeldung ist nicht möglich.",
  },
  passkey: {
    unsupported: "Dieser Browser unterstützt keine Passkeys.",
    cancelled: "Die Passkey-Anfrage wurde abgebrochen oder ist abgelaufen.",
    alreadyRegistered: "Dieser Passkey ist bereits registriert. Melden Sie sich stattdessen damit an.",
    failed: "Die Anmeldung mit Passkey ist fehlgeschlagen. Bitte versuchen Sie es erneut.",
  },
  signOut: {
    title: "Abmelden",
    heading: "Abmelden",
    message: "Möchten Sie sich wirklich abmelden?",
    button: "Abmelden",
  },
  verifyRequest: {
    title: "Prüfen Sie Ihre E-Mails",
    heading: "Prüfen Sie Ihre E-Mails",
    message: "Wir haben einen Anmeldelink an Ihre E-Mail-Adresse gesendet. Er funktioniert einmal.",
  },
  error: {
    title: "Fehler",
    signIn: "Anmelden",
    home: "Startseite",
    tryAgain: "Erneut versuchen",
    continue: "Weiter",
    pages: {
      Configuration: {
        heading: "Serverfehler",
        message: "Die Serverkonfiguration ist fehlerhaft. Details stehen in den Server-Logs.",
      },
      AccessDenied: { heading: "Zugriff verweigert", message: "Sie haben keine Berechtigung, sich anzumelden." },
      Verification: {
        heading: "Anmeldung nicht möglich",
        message: "Der Anmeldelink ist nicht mehr gültig. Er wurde vielleicht schon benutzt oder ist abgelaufen.",
      },
      EmailSignin: {
        heading: "Anmeldung nicht möglich",
        message: "Die Anmelde-E-Mail konnte nicht gesendet werden. Prüfen Sie die Adresse und versuchen Sie es erneut.",
      },
      RateLimited: {
        heading: "Zu viele Versuche",
        message: "Zu viele Anmeldeversuche. Warten Sie einen Moment und versuchen Sie es dann erneut.",
      },
      WebAuthnVerificationError: {
        heading: "Anmeldung nicht möglich",
        message:
          "Der Passkey konnte nicht geprüft werden. Versuchen Sie es erneut oder wählen Sie eine andere Anmeldeart.",
      },
    },
    cancelled: {
      heading: "Anmeldung abgebrochen",
      message:
        "Sie haben die Anmeldung abgebrochen; es hat sich nichts geändert. Versuchen Sie es erneut oder wählen Sie eine andere Anmeldeart.",
    },
    alreadySignedIn: {
      heading: "Sie sind bereits angemeldet",
      message: "Dieser Anmeldelink wurde schon benutzt, und in diesem Browser sind Sie angemeldet.",
    },
    default: { heading: "Fehler", message: "Bei der Anmeldung ist etwas schiefgegangen." },
  },
}
