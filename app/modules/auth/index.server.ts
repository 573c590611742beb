export {
  findSignedInAdmin,
  hashSessionToken,
  sessionCookie,
  type SignedInAdmin,
} from './session.server';
