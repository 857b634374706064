import { readFileSync } from 'node:fs';
import { it } from 'vitest';
import { FLAVOURS } from '../../src/sandbox/index.js';
import { fitTo, generate, property, toYaml, type SchemaNode } from '../support/contract.js';
const schema = JSON.parse(readFileSync('/work/h27gen/schemas/forgeform.schema.json', 'utf8')) as SchemaNode;
it('diag', { timeout: 0 }, async () => {
  const seed = Number(process.env.S ?? 272026), n = Number(process.env.N ?? 30);
  const fls = process.env.F ? process.env.F.split(',') : FLAVOURS.map((f) => f.name);
  const tally: Record<string, number> = {};
  const reasons: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    const { config } = generate(schema, seed + i);
    for (const fl of fls) {
      const yaml = toYaml(fitTo(config, fl, seed + i));
      const v = await property(yaml, fl);
      const first = v.steps[0];
      const k = v.broke ? 'BROKE' : first?.code === 2 ? 'applied' : first?.code === 0 ? 'unchanged' : 'refused';
      tally[k] = (tally[k] ?? 0) + 1;
      if (k === 'refused') {
        const line = (first?.out ?? '').split('\n').find((l) => /:\d+:\d+/.test(l)) ?? first?.out.split('\n')[0] ?? '';
        const r = line.replace(/^.*?:\d+:\d+: /, '').replace(/"[^"]*"/g, '"…"').slice(0, 110);
        reasons[r] = (reasons[r] ?? 0) + 1;
        if (process.env.R && line.includes(process.env.R)) console.log(`#${seed + i} ${fl}\n${yaml}${first?.out}`);
      }
      if (process.env.V || v.broke) console.log(`#${seed + i} ${fl} ${k} ${v.broke ?? ''}\n${yaml}--\n${v.steps.map((s) => s.what + ' ' + s.code + ': ' + s.out.slice(0, 1500)).join('\n')}\n=====`);
    }
  }
  console.log(Object.entries(reasons).sort((a, b) => b[1] - a[1]).map(([r, c]) => `${c}  ${r}`).join('\n'));
  console.log(JSON.stringify(tally));
});
