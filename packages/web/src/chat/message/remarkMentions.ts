/**
 * A remark plugin that wraps `@Name` of the mentioned users in `<span class="mention">` (text nodes only, so
 * code and links are left alone).
 */
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  data?: { hName?: string; hProperties?: Record<string, unknown> };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function remarkMentions(options: { names: readonly string[] }) {
  const names = [...options.names].sort((a, b) => b.length - a.length);
  return (tree: MdNode) => {
    if (names.length === 0) return;
    const pattern = new RegExp(`@(?:${names.map(escapeRegExp).join('|')})`, 'g');
    visit(tree, pattern);
  };
}

function visit(node: MdNode, pattern: RegExp): void {
  if (!node.children || node.type === 'link' || node.type === 'inlineCode' || node.type === 'code') return;
  const next: MdNode[] = [];
  for (const child of node.children) {
    if (child.type !== 'text' || !child.value) {
      visit(child, pattern);
      next.push(child);
      continue;
    }
    let last = 0;
    for (const match of child.value.matchAll(pattern)) {
      const at = match.index;
      if (at > last) next.push({ type: 'text', value: child.value.slice(last, at) });
      next.push({
        type: 'mention',
        data: { hName: 'span', hProperties: { className: ['mention'] } },
        children: [{ type: 'text', value: match[0] }],
      });
      last = at + match[0].length;
    }
    if (last < child.value.length) next.push({ type: 'text', value: child.value.slice(last) });
  }
  node.children = next;
}
