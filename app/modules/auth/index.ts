export { emailField, nameField, newPasswordField } from './validation';
export {
  changePasswordSchema,
  createAdminSchema,
  forgotPasswordSchema,
  PASSWORD_RESET_MESSAGES,
  resetPasswordSchema,
} from './user-forms';
