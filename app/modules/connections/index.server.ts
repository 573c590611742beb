export {
  connectionsView,
  createConnectionsStore,
  resolveConnections,
  warnOfUnreadableSecrets,
  type Connections,
  type ConnectionsEnv,
  type ConnectionsStore,
} from './connections.server';
export {
  loadSecretsKey,
  openSecret,
  sealSecret,
  SECRETS_KEY_FILE,
  type SecretsKey,
} from './secrets.server';
