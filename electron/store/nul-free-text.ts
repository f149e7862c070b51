// PostgreSQL text cannot hold the NUL character (U+0000); SQLite's can. A scanned API may answer with
// one (a binary body quoted in evidence), an imported specification may carry one in a description.
// On PostgreSQL every string the store writes has its NULs replaced by U+2400 (SYMBOL FOR NULL, "␀"),
// visible where the byte was, instead of failing the write (and with it the scan or the import).

import {
  OperationNodeTransformer,
  PrimitiveValueListNode,
  ValueNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

export const NUL_STAND_IN = '\u2400';

const withoutNul = (value: unknown): unknown => (typeof value === 'string' && value.includes('\u0000') ? value.replaceAll('\u0000', NUL_STAND_IN) : value);

class NulFreeValues extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const value = withoutNul(node.value);
    return value === node.value ? node : ValueNode.create(value);
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return node.values.some((v) => withoutNul(v) !== v) ? PrimitiveValueListNode.create(node.values.map(withoutNul)) : node;
  }
}

export class NulFreeTextPlugin implements KyselyPlugin {
  private readonly transformer = new NulFreeValues();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.transformer.transformNode(args.node, args.queryId);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
