export {
  connectionsView,
  createConnectionsStore,
  resolveConnections,
  warnOfUnreadableSecrets,
  type Connections,
  type ConnectionsEnv,
  type ConnectionsStore,
} from './connections.server';
export { loadSecretsKey, SECRETS_KEY_FILE, secretsVault, type SecretsKey } from './secrets.server';
