// The example tools' "database" (shared with the Mastra example): what ran for real.
export { db, ranForReal } from '../mastra/db.js';
