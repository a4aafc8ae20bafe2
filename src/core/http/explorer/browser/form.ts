// The query builder: project, collection (or one entry of it), where- and whereRelation-conditions
// whose operators and value pickers follow the field's type, sort, paging, the kind of answer,
// state, locale, timestamps, fields/exclude. It reads into and is set from a QueryState (query.ts).
// A condition keeps the field it names: when the collection changes and that field is not there,
// the condition is marked and the form refuses to run until it is changed or removed; it is never
// moved to another field.
import type { Op } from '../../../query/operators.js';
import { api } from './api.js';
import { $, el, setOptions } from './dom.js';
import { emptyQuery, FLAG_OPS, trimValue, type AnswerKind, type Condition, type Pick, type QueryState, type State } from './query.js';
import { filterable, labelField, opsOf, type Collection, type Field, type Project } from './schema.js';

const OP_TEXT: Record<Op, string> = {
  eq: '= equals',
  not: '≠ not',
  like: 'like (% any run, _ one character)',
  in: 'in (a,b,…)',
  not_in: 'not in (a,b,…)',
  lt: '< lt',
  lte: '≤ lte',
  gt: '> gt',
  gte: '≥ gte',
  between: 'between (low,high)',
  not_between: 'not between (low,high)',
  null: 'is empty',
  not_null: 'is not empty',
};
const PLACEHOLDERS: Partial<Record<Op, string>> = {
  in: 'a,b,c',
  not_in: 'a,b,c',
  between: 'low,high',
  not_between: 'low,high',
  like: '%text%',
};
const TYPE_HINTS: Partial<Record<string, string>> = {
  number: 'a number',
  boolean: 'true or false',
  date: 'YYYY-MM-DD',
  datetime: 'YYYY-MM-DD or an ISO date-time',
  time: 'HH:MM',
  relation: 'an entry id',
  media: 'a media id',
};

// ---------------------------------------------------------------------------------------------
// Suggestions: the ids of a collection (for relation fields and the entry id) and of the media.

interface Suggestion {
  readonly id: string;
  readonly label: string;
}
let suggestions = new Map<string, Promise<Suggestion[]>>();

/** Forget every list of ids (the content changed, or the token did). */
export function forgetSuggestions(): void {
  suggestions = new Map();
}

function listOf(body: unknown): Record<string, unknown>[] {
  const list = Array.isArray(body) ? body : body && typeof body === 'object' ? (body as { data?: unknown }).data : undefined;
  return Array.isArray(list) ? list.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null) : [];
}

/** Up to 200 ids of a collection (`media`: of the project's media), each with a title if it has one. */
function idsOf(project: Project, slug: string): Promise<Suggestion[]> {
  const key = `${project.id}/${slug}`;
  let p = suggestions.get(key);
  if (!p) {
    const collection = project.collections.find((c) => c.slug === slug);
    const label = slug === 'project-media' ? 'file_name' : labelField(collection);
    p = (async () => {
      if (project.dialect === 'elmapi3') {
        // Entries by uuid, their fields nested; the media are the project's files (a token's only).
        const media = slug === 'project-media';
        const r = await api(media ? '/api/files?paginate=100' : `/api/${encodeURIComponent(slug)}?limit=200`, project.anonymous, {
          'project-id': project.id,
        });
        return listOf(r.body).map((e) => {
          const fields = (e.fields ?? {}) as Record<string, unknown>;
          const text = media ? e.filename : label ? fields[label] : undefined;
          return { id: String(e.uuid), label: typeof text === 'string' ? text : '' };
        });
      }
      const base = `/api/${project.id}/${slug}?limit=200`;
      let r = label && slug !== 'project-media' ? await api(`${base}&fields=${label}`, project.anonymous) : undefined;
      if (r?.status !== 200) r = await api(base, project.anonymous);
      return listOf(r.body).map((e) => ({ id: String(e.id), label: label && typeof e[label] === 'string' ? (e[label] as string) : '' }));
    })();
    suggestions.set(key, p);
  }
  return p;
}

let datalists = 0;
/** A <datalist> filled (later) with the ids of a collection. */
function idList(project: Project, slug: string): HTMLDataListElement {
  const list = el('datalist', { id: `ids-${++datalists}` });
  void idsOf(project, slug)
    .then((ids) => list.replaceChildren(...ids.map((s) => el('option', { value: s.id, text: s.label }))))
    .catch(() => undefined);
  return list;
}

// ---------------------------------------------------------------------------------------------

/** Adds `value` to a select that lacks it, marked: a value the form got but cannot offer. */
function ensureOption(select: HTMLSelectElement, value: string, text: string): void {
  if (![...select.options].some((o) => o.value === value)) select.append(el('option', { value, text, class: 'missing' }));
}

type PickerKind = 'none' | 'select' | 'multi' | 'text';

/** One condition of the form: where[f][op]=v, or, with a relation, whereRelation[rel][f][op]=v. */
class ConditionRow {
  readonly row: HTMLDivElement;
  private readonly relSelect: HTMLSelectElement | undefined;
  private readonly fieldSelect: HTMLSelectElement;
  private readonly opSelect: HTMLSelectElement;
  private readonly valueBox: HTMLSpanElement;
  private readonly note: HTMLParagraphElement;
  private value: HTMLInputElement | HTMLSelectElement;
  private pickerKey = '';
  private cond: Condition;
  private pickedByHand = false;

  constructor(
    private readonly builder: Builder,
    relation: boolean,
    n: number,
    cond: Condition | undefined,
  ) {
    const what = relation ? 'related condition' : 'condition';
    this.cond = cond ?? { ...(relation ? { relation: '' } : {}), field: '', op: 'eq', value: '' };
    this.relSelect = relation ? el('select', { class: 'relation', 'aria-label': `Relation of ${what} ${n}` }) : undefined;
    this.fieldSelect = el('select', { class: 'field', 'aria-label': `Field of ${what} ${n}` });
    this.opSelect = el('select', { class: 'op', 'aria-label': `Operator of ${what} ${n}` });
    this.value = el('input', { class: 'value', type: 'text', 'aria-label': `Value of ${what} ${n}` });
    this.value.value = this.cond.value;
    this.valueBox = el('span', { class: 'value-box' }, this.value);
    this.note = el('p', { class: 'note error', hidden: true });
    const remove = el('button', { type: 'button', class: 'remove', 'aria-label': `Remove ${what} ${n}`, text: '×' });
    this.row = el(
      'div',
      {
        class: relation ? 'condition related' : 'condition',
        role: 'group',
        'aria-label': `${relation ? 'Related condition' : 'Condition'} ${n}`,
      },
      this.relSelect,
      this.fieldSelect,
      this.opSelect,
      this.valueBox,
      remove,
      this.note,
    );
    this.relSelect?.addEventListener('change', () => {
      this.cond = { ...this.read(), relation: this.relSelect?.value ?? '', field: '' };
      this.pickedByHand = true;
      this.update();
    });
    this.fieldSelect.addEventListener('change', () => {
      // A field picked by hand takes an operator it allows (the one before, if it does).
      this.cond = { ...this.read(), field: this.fieldSelect.value };
      this.pickedByHand = true;
      this.update();
    });
    this.opSelect.addEventListener('change', () => {
      this.cond = { ...this.read(), op: this.opSelect.value as Op };
      this.update();
    });
    remove.addEventListener('click', () => builder.removeRow(this));
  }

  get isRelation(): boolean {
    return this.relSelect !== undefined;
  }

  focus(): void {
    (this.relSelect ?? this.fieldSelect).focus();
  }

  /** The condition as the form holds it (the value as typed, trimmed when sent). */
  read(): Condition {
    const { values, ...cond } = this.cond;
    if (FLAG_OPS.has(cond.op)) return { ...cond, value: '' };
    if (this.value instanceof HTMLSelectElement && this.value.multiple) {
      // Several picked values are kept apart: one of them may hold a comma.
      const picked = [...this.value.selectedOptions].map((o) => o.value);
      return { ...cond, value: picked.join(','), values: picked };
    }
    // The elements a link gave are kept while the text still shows them as they came.
    const value = this.value.value;
    return values && value === cond.value ? { ...cond, value, values } : { ...cond, value };
  }

  /** Re-draws the row for the builder's current collection; marks what is not there. */
  update(): void {
    const project = this.builder.project();
    const collection = this.builder.collection();
    const problems: string[] = [];
    let scope: Collection | undefined = collection;
    let relField: Field | undefined;
    if (this.relSelect) {
      const relations = (collection?.fields ?? []).filter((f) => f.type === 'relation' && f.collection);
      setOptions(
        this.relSelect,
        relations.map((f) => [f.name, `${f.name} → ${f.collection}`]),
      );
      const rel = this.cond.relation ?? '';
      if (!rel && relations[0]) this.cond = { ...this.cond, relation: relations[0].name };
      const wanted = this.cond.relation ?? '';
      relField = relations.find((f) => f.name === wanted);
      const field = relField;
      if (!field) {
        ensureOption(this.relSelect, wanted, `${wanted || '(none)'} — not a relation of ${collection?.name ?? 'this collection'}`);
        problems.push(
          wanted
            ? `'${wanted}' is not a relation field of ${collection?.name ?? 'this collection'}`
            : `${collection?.name ?? 'This collection'} has no relation field`,
        );
      }
      this.relSelect.value = wanted;
      scope = field ? project?.collections.find((c) => c.slug === field.collection) : undefined;
    }
    const fields = project && scope ? filterable(project, scope) : [];
    setOptions(
      this.fieldSelect,
      fields.map((f) => [f.name, `${f.name} (${f.type}${f.multiple ? ', multiple' : ''})`]),
    );
    if (!this.cond.field && fields[0] && !problems.length) this.cond = { ...this.cond, field: fields[0].name };
    const field = fields.find((f) => f.name === this.cond.field);
    if (!field && this.cond.field) {
      ensureOption(this.fieldSelect, this.cond.field, `${this.cond.field} — not in ${scope?.name ?? 'this collection'}`);
      if (!problems.length)
        problems.push(
          `'${this.cond.field}' is not a field of ${scope?.name ?? 'this collection'}: pick another field or remove this condition`,
        );
    }
    this.fieldSelect.value = this.cond.field;
    const ops = field ? opsOf(field, project?.dialect === 'elmapi3') : [this.cond.op];
    const byHand = this.pickedByHand;
    this.pickedByHand = false;
    if (byHand && ops[0] && !ops.includes(this.cond.op)) this.cond = { ...this.cond, op: ops[0] };
    setOptions(
      this.opSelect,
      ops.map((o) => [o, OP_TEXT[o]]),
    );
    if (field && !ops.includes(this.cond.op)) {
      ensureOption(this.opSelect, this.cond.op, `${OP_TEXT[this.cond.op]} — not for ${field.type}`);
      problems.push(`'${this.cond.op}' does not apply to ${field.type} field '${field.name}'; it takes ${ops.join(', ')}`);
    }
    this.opSelect.value = this.cond.op;
    this.picker(project, field, byHand);
    this.row.classList.toggle('missing', problems.length > 0);
    this.note.hidden = problems.length === 0;
    this.note.textContent = problems.join('; ');
    // The form refuses to run while a condition names what is not there (the browser says why).
    this.relSelect?.setCustomValidity('');
    this.fieldSelect.setCustomValidity('');
    if (problems.length) (this.relSelect && !relField ? this.relSelect : this.fieldSelect).setCustomValidity(problems.join('; '));
  }

  /** The value control the field and operator call for: a select of values, several, or text. */
  private picker(project: Project | undefined, field: Field | undefined, byHand: boolean): void {
    const op = this.cond.op;
    const choices = field?.type === 'boolean' ? ['true', 'false'] : field?.values;
    let kind: PickerKind = 'text';
    if (FLAG_OPS.has(op)) kind = 'none';
    else if (choices && (op === 'eq' || op === 'not')) kind = 'select';
    else if (choices && (op === 'in' || op === 'not_in')) kind = 'multi';
    const ref = field && (field.type === 'relation' ? field.collection : field.type === 'media' ? 'project-media' : undefined);
    const key = `${kind}|${field?.name}|${field?.type}|${(choices ?? []).join(',')}|${ref ?? ''}|${op}`;
    if (key === this.pickerKey) return;
    this.pickerKey = key;
    const label = this.value.getAttribute('aria-label') ?? 'Value';
    const { value: typed, values: elements } = this.read();
    let control: HTMLInputElement | HTMLSelectElement;
    const extra: Node[] = [];
    if (kind === 'select' || kind === 'multi') {
      const select = el('select', {
        class: 'value',
        'aria-label': label,
        required: true,
        multiple: kind === 'multi',
        size: kind === 'multi' ? String(Math.min(5, (choices ?? []).length)) : undefined,
      });
      if (kind === 'select') select.append(el('option', { value: '', text: 'choose…' }));
      select.append(...(choices ?? []).map((v) => el('option', { value: v, text: v })));
      const wanted = kind === 'multi' ? (elements ?? typed.split(',')).map((v) => v.trim()).filter(Boolean) : [typed.trim()];
      // A value the field does not have stays (marked) when it came with the condition (a link); a
      // field picked by hand starts from its own values.
      if (!byHand) for (const v of wanted) if (v) ensureOption(select, v, `${v} (not a value of ${field?.name})`);
      for (const o of select.options) o.selected = wanted.includes(o.value) && (o.value !== '' || kind === 'select');
      control = select;
    } else {
      const input = el('input', { class: 'value', type: 'text', 'aria-label': label, autocomplete: 'off', spellcheck: 'false' });
      input.value = kind === 'none' ? '' : typed;
      input.disabled = kind === 'none';
      // An empty value is almost always a condition not filled in yet: the form asks for it.
      input.required = kind !== 'none';
      // elmapi3 compares its timestamps as stored text: 'YYYY-MM-DD HH:MM:SS' (an ISO value is warned of).
      const v3Time = project?.dialect === 'elmapi3' && field?.type === 'datetime';
      input.placeholder =
        kind === 'none' ? '' : (PLACEHOLDERS[op] ?? (v3Time ? 'YYYY-MM-DD HH:MM:SS (UTC)' : field && TYPE_HINTS[field.type]) ?? 'value');
      if (kind === 'text' && project && (ref || choices)) {
        const list = ref
          ? idList(project, ref)
          : el('datalist', { id: `ids-${++datalists}` }, ...(choices ?? []).map((v) => el('option', { value: v })));
        input.setAttribute('list', list.id);
        extra.push(list);
      }
      control = input;
    }
    this.value = control;
    this.valueBox.replaceChildren(control, ...extra);
  }
}

// ---------------------------------------------------------------------------------------------

/** How many entries a click on a collection's slug asks for (a collection may hold a million). */
export const FIRST_ENTRIES = 20;

const state = (v: string): State => (v === 'with_draft' || v === 'only_draft' ? v : 'published');

export class Builder {
  projects: Project[] = [];
  private rows: ConditionRow[] = [];
  private count = 0;
  private readonly form = $<HTMLFormElement>('query-form');
  private readonly projectSelect = $<HTMLSelectElement>('project');
  private readonly collectionSelect = $<HTMLSelectElement>('collection');
  private readonly entry = $<HTMLInputElement>('entry');
  private readonly sort = $<HTMLSelectElement>('sort-field');
  private readonly locale = $<HTMLSelectElement>('locale');
  private readonly pick = $<HTMLSelectElement>('pick');
  private readonly pickFields = $('pick-fields');

  constructor() {
    this.projectSelect.addEventListener('change', () => this.showCollections());
    this.collectionSelect.addEventListener('change', () => this.showFields());
    this.entry.addEventListener('input', () => this.entryChanged());
    this.entry.addEventListener('focus', () => this.entryIds());
    this.pick.addEventListener('change', () => this.pickChanged());
    this.pickFields.addEventListener('change', () => this.pickChanged());
    $('add-condition').addEventListener('click', () => this.addRow(false).focus());
    $('add-relation').addEventListener('click', () => this.addRow(true).focus());
  }

  project(): Project | undefined {
    return this.projects.find((p) => p.id === this.projectSelect.value);
  }

  collection(): Collection | undefined {
    return this.project()?.collections.find((c) => c.slug === this.collectionSelect.value);
  }

  /** New projects (a token, or new content): the form keeps what it can and marks the rest. */
  setProjects(projects: Project[]): void {
    this.projects = projects;
    setOptions(
      this.projectSelect,
      // The name isolated (FSI … PDI): a right-to-left mark in it must not run on into the id.
      projects.map((p) => [p.id, `\u2068${p.name}\u2069 (${p.id})`]),
    );
    ($('run') as HTMLButtonElement).disabled = projects.length === 0;
    this.showCollections();
  }

  private showCollections(): void {
    const p = this.project();
    setOptions(
      this.collectionSelect,
      (p?.collections ?? []).map((c) => [c.slug, `${c.name} (${c.slug})`]),
    );
    const locales = p?.locales ?? [];
    setOptions(this.locale, [['', 'any'], ...locales.map((l): [string, string] => [l, l])]);
    // What the dialect reads: elmapi3 has one other state, drafts alone, and no fields= (exclude= only).
    const v3 = p?.dialect === 'elmapi3';
    const only = (ok: boolean, option: [string, string]): [string, string][] => (ok ? [option] : []);
    setOptions($<HTMLSelectElement>('state'), [
      ['published', 'published'],
      ...only(!v3, ['with_draft', 'with drafts']),
      ['only_draft', 'drafts only'],
    ]);
    setOptions(this.pick, [
      ['all', 'every field'],
      ...only(!v3, ['fields', 'only these (fields=)']),
      ['exclude', 'all but these (exclude=)'],
    ]);
    $('relation-syntax').textContent = v3 ? 'where[relation][field]' : 'whereRelation';
    this.showFields();
  }

  /** The collection changed (or its schema did): every part of the form that names fields. */
  showFields(): void {
    const p = this.project();
    const c = this.collection();
    const fields = p && c ? filterable(p, c) : [];
    const sorted = this.sort.value;
    setOptions(this.sort, [['', 'default order'], ...fields.map((f): [string, string] => [f.name, f.name])]);
    // A sort by a field this collection lacks falls back to the default order, never to another field.
    if (!fields.some((f) => f.name === sorted)) this.sort.value = '';
    const picked = new Set(this.pickedFields());
    this.pickFields.replaceChildren(
      ...(c?.fields ?? []).map((f) =>
        el(
          'label',
          { class: 'inline' },
          el('input', { type: 'checkbox', value: f.name, checked: picked.has(f.name), 'aria-label': `field ${f.name}` }),
          ` ${f.name}`,
        ),
      ),
    );
    this.pickChanged();
    $('entry-ids').replaceChildren();
    for (const r of this.rows) r.update();
  }

  private entryIds(): void {
    const p = this.project();
    const c = this.collection();
    if (!p || !c) return;
    void idsOf(p, c.slug).then((ids) => $('entry-ids').replaceChildren(...ids.map((s) => el('option', { value: s.id, text: s.label }))));
  }

  private entryChanged(): void {
    // One entry takes state, timestamps, fields and exclude only: the list's options rest.
    ($('list-options') as HTMLFieldSetElement).disabled = this.entry.value.trim() !== '';
  }

  private pickedFields(): string[] {
    return [...this.pickFields.querySelectorAll<HTMLInputElement>('input:checked')].map((i) => i.value);
  }

  private pickChanged(): void {
    const mode = this.pick.value;
    ($('pick-box') as HTMLFieldSetElement).disabled = mode === 'all';
    this.pick.setCustomValidity(mode !== 'all' && this.pickedFields().length === 0 ? 'choose at least one field below' : '');
  }

  addRow(relation: boolean, cond?: Condition): ConditionRow {
    const row = new ConditionRow(this, relation, ++this.count, cond);
    this.rows.push(row);
    $(relation ? 'relations' : 'conditions').append(row.row);
    row.update();
    return row;
  }

  removeRow(row: ConditionRow): void {
    this.rows = this.rows.filter((r) => r !== row);
    row.row.remove();
    $(row.isRelation ? 'add-relation' : 'add-condition').focus();
  }

  /** The request the form describes. */
  read(): QueryState {
    const answer = (this.form.querySelector<HTMLInputElement>('input[name="answer"]:checked')?.value ?? 'list') as AnswerKind;
    return {
      project: this.projectSelect.value,
      v3: this.project()?.dialect === 'elmapi3',
      collection: this.collectionSelect.value,
      entry: this.entry.value.trim(),
      conditions: this.rows.map((r) => {
        const c = r.read();
        return { ...c, value: trimValue(c.op, c.value) };
      }),
      any: ($('any') as HTMLInputElement).checked,
      sort: this.sort.value,
      desc: ($('sort-dir') as HTMLSelectElement).value === 'desc',
      limit: ($('limit') as HTMLInputElement).value.trim(),
      offset: ($('offset') as HTMLInputElement).value.trim(),
      answer,
      state: state(($('state') as HTMLSelectElement).value),
      locale: this.locale.value,
      timestamps: ($('timestamps') as HTMLInputElement).checked,
      pick: this.pick.value as Pick,
      pickFields: this.pick.value === 'all' ? [] : this.pickedFields(),
    };
  }

  /**
   * Sets the form to `q` (a shared link, a click on an entry). Undefined when done, else why not:
   * a project or collection this page does not list (the token may be missing).
   */
  apply(q: QueryState): string | undefined {
    const p = this.projects.find((x) => x.id === q.project);
    if (!p) return `project '${q.project}' is not readable here${this.projects.length ? '' : ' without a token'}: use its token`;
    if (!p.collections.some((c) => c.slug === q.collection)) return `project '${p.id}' has no collection '${q.collection}'`;
    this.projectSelect.value = p.id;
    this.showCollections();
    this.collectionSelect.value = q.collection;
    for (const r of this.rows) r.row.remove();
    this.rows = [];
    this.count = 0;
    this.entry.value = q.entry;
    this.entryChanged();
    ($('any') as HTMLInputElement).checked = q.any;
    ($('limit') as HTMLInputElement).value = q.limit;
    ($('offset') as HTMLInputElement).value = q.offset;
    for (const r of this.form.querySelectorAll<HTMLInputElement>('input[name="answer"]')) r.checked = r.value === q.answer;
    ($('state') as HTMLSelectElement).value = q.state;
    ($('timestamps') as HTMLInputElement).checked = q.timestamps;
    this.pick.value = q.pick;
    this.showFields();
    if (q.sort) ensureOption(this.sort, q.sort, `${q.sort} (not a field here)`);
    this.sort.value = q.sort;
    ($('sort-dir') as HTMLSelectElement).value = q.desc ? 'desc' : 'asc';
    if (q.locale) ensureOption(this.locale, q.locale, `${q.locale} (not a locale of ${p.id})`);
    this.locale.value = q.locale;
    for (const box of this.pickFields.querySelectorAll<HTMLInputElement>('input')) box.checked = q.pickFields.includes(box.value);
    this.pickChanged();
    for (const c of q.conditions) this.addRow(c.relation !== undefined, c);
    return undefined;
  }

  /** A fresh query of one collection, its first entries (a click on its slug in the project list). */
  reset(project: string, collection: string): void {
    // A singleton answers its one entry, and v3 warns of a limit there.
    const single = this.projects.find((p) => p.id === project)?.collections.find((c) => c.slug === collection)?.singleton;
    this.apply({ ...emptyQuery(project, collection), limit: single ? '' : String(FIRST_ENTRIES) });
  }
}
