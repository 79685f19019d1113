// The example tools' "database" (shared with the other examples): what ran for real.
export { db, ranForReal } from '../mastra/db.js';
