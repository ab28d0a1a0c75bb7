import type { TMail } from "../../lib/mailer";

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

function compose(
  to: string,
  subject: string,
  intro: string,
  action: string,
  link: string,
  outro: string,
): TMail {
  return {
    to,
    subject,
    text: `Tradewinds\n\n${intro}\n\n${action}:\n${link}\n\n${outro}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a">
<p style="font-weight:600;font-size:18px">Tradewinds</p>
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#12405a;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="font-size:13px;color:#475569">Or open this link: ${escapeHtml(link)}</p>
<p style="font-size:13px;color:#475569">${escapeHtml(outro)}</p>
</body></html>`,
  };
}

/** The e-mail that confirms an address belongs to the user. */
export function verificationMail(to: string, link: string): TMail {
  return compose(
    to,
    "Verify your e-mail address for Tradewinds",
    "Please confirm that this e-mail address belongs to your Tradewinds account.",
    "Verify e-mail address",
    link,
    "The link is valid for 24 hours. If you did not create an account, ignore this message.",
  );
}

/** The e-mail with a one-time password reset link. */
export function resetMail(to: string, link: string): TMail {
  return compose(
    to,
    "Reset your Tradewinds password",
    "Someone asked to reset the password of your Tradewinds account.",
    "Choose a new password",
    link,
    "The link is valid for 60 minutes and works once. If you did not ask for it, ignore this message: your password stays as it is.",
  );
}

/** Sent to the owner of an address someone tried to register again (the API answers as for a new one). */
export function alreadyRegisteredMail(to: string, loginLink: string, resetLink: string): TMail {
  return compose(
    to,
    "Someone tried to register with your e-mail address",
    "Someone tried to create a Tradewinds account with this e-mail address, which already has one. If it was you, log in instead; if you forgot your password, reset it from the login page.",
    "Log in",
    loginLink,
    `Forgot your password? ${resetLink}. If it was not you, you can ignore this message: nothing was changed.`,
  );
}

/** Sent to the OLD address when the account's e-mail address changes. */
export function emailChangedMail(to: string, newAddress: string, loginLink: string): TMail {
  return compose(
    to,
    "Your Tradewinds e-mail address was changed",
    `The e-mail address of your Tradewinds account was changed to ${newAddress}.`,
    "Log in to review your account",
    loginLink,
    "If you did not do this, reset your password at once and contact your administrator.",
  );
}

/** Sent when the account's password changes. */
export function passwordChangedMail(to: string, loginLink: string): TMail {
  return compose(
    to,
    "Your Tradewinds password was changed",
    "The password of your Tradewinds account was just changed. Your other sessions were signed out.",
    "Log in",
    loginLink,
    "If you did not do this, reset your password at once from the login page.",
  );
}

/** The invitation to join a colleague's workspace, with its signed one-time link. */
export function invitationMail(to: string, inviter: string, workspace: string, link: string): TMail {
  return compose(
    to,
    `${inviter} invited you to Tradewinds`,
    `${inviter} invited you to join the workspace ${workspace} on Tradewinds.`,
    "Choose your password and join",
    link,
    "The link is valid for 7 days and works once. If you did not expect it, ignore this message.",
  );
}
