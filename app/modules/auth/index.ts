export { emailField, nameField, newPasswordField } from './validation';
export { changePasswordSchema, createAdminSchema } from './user-forms';
