import { errors } from '@feedback/kit-core';
import type { Node } from '../../accounts/domain/account.js';
import type { NodeRepository } from '../../accounts/domain/ports.js';

/** Nodes live in the gateway's database: another account's node answers exactly like an unknown one. */
export async function requireOwnNode(nodes: Pick<NodeRepository, 'findById'>, accountId: string, nodeId: string): Promise<Node> {
  const node = await nodes.findById(accountId, nodeId);
  if (!node) throw errors.notFound('node_id', nodeId);
  return node;
}
