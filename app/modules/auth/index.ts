export {
  AUTH_MESSAGES,
  emailField,
  firstAdminSchema,
  nameField,
  newPasswordField,
  signInSchema,
} from './validation';
export {
  changePasswordSchema,
  createAdminSchema,
  setAdminActiveSchema,
  USER_FORM_MESSAGES,
} from './user-forms';
