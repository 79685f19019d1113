// The example tools' "database" (shared with the Mastra example).
export { db, ranForReal } from '../mastra/db.js';
