import { chatRoute } from '@mastra/ai-sdk';
import { Mastra } from '@mastra/core';
import { support } from './index.js';

export const mastra = new Mastra({
  agents: { support },
  server: { apiRoutes: [chatRoute({ path: '/chat/:agentId' })] },
});
