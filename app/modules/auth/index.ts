export {
  AUTH_MESSAGES,
  emailField,
  firstAdminSchema,
  nameField,
  newPasswordField,
  signInSchema,
} from './validation';
