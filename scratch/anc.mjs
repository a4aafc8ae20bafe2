import { parseDocument, visit } from 'yaml';
for (const text of ['title: &copy; 2024 Acme\n  all rights reserved\nnext: 1\n', 'a: &copy; 2024\n', 'b: &amp;\n', 'c: &copy;\n  2024 x\n', 'd: &copy; "q"\n']) {
const doc = parseDocument(text);
visit(doc, (_, node) => { if (node?.anchor) console.log(JSON.stringify(text), node.anchor, node.type, node.range, JSON.stringify(node.value), JSON.stringify(node.source)); });
}
