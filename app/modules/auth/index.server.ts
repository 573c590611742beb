export {
  ADMIN_MESSAGES,
  changePassword,
  createAdmin,
  listAdmins,
  setAdminActive,
} from './admins.server';
export {
  currentSessionId,
  endSession,
  findSignedInAdmin,
  hashSessionToken,
  requireAdmin,
  SESSION_COOKIE_NAMES,
  SESSION_IDLE_MS,
  SESSION_MAX_AGE_MS,
  sessionCookie,
  startSession,
  type SignedInAdmin,
} from './session.server';
export {
  checkCredentials,
  createFirstAdmin,
  hasAnyAdmin,
  issueSetupCode,
  logSetupCode,
  SIGN_IN_MESSAGES,
  type SignInResult,
  type Throttled,
} from './sign-in.server';
export { loginSchema, userActionSchema } from './admin-actions.server';
export {
  checkPasswordResetToken,
  issuePasswordResetToken,
  PASSWORD_RESET_TTL_MS,
  requestPasswordReset,
  resetPasswordWithToken,
  setAdminPassword,
  type PasswordResetMail,
  type PasswordResetState,
} from './password-reset.server';
