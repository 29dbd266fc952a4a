// The life of an alert, replayed to produce its audit trail: every change is applied to the alert
// state and recorded with a snapshot of the state after it, so the last snapshot is the alert as
// served. Snapshots share unchanged note objects instead of copying them; notes are replaced,
// never mutated, so sharing is safe.
import type { Faker } from '@faker-js/faker';
import { HOUR_MS, MINUTE_MS, isoAt } from './dates.js';
import { type ProjectContext, pickAnalyst } from './projects.js';
import { type DocumentSink, type StoredFile, storedFile } from './stored-files.js';
import { randomUuid, randInt, pick } from './seeding.js';

export interface Note {
  id: string;
  name: string;
  description: string | null;
  data: unknown;
  cmsProjectId: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  updatedBy: string;
  documents: StoredFile[];
  [extra: string]: unknown;
}

/** The alert's own fields (SPEC 2.4 main table), in the order the spec lists them. */
export interface AlertState {
  id: string;
  severity: string;
  category: string;
  type: string;
  status: string;
  name: string;
  description: string | null;
  assignedTo: string | null;
  seen: boolean;
  customerId: string;
  cmsProjectId: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  updatedBy: string;
  reason: string | null;
  workflowSessionId?: string | null;
  notes: Note[];
  [extra: string]: unknown;
}

export interface AuditEntry {
  timestamp: string;
  action: 'create' | 'update' | 'attach' | 'detach' | 'duplicate';
  author: string | null;
  record: AlertState;
}

export interface Target {
  status: string;
  severity: string;
  reason: string | null;
  noteTexts: readonly { name: string; description: string | null }[];
  /** Record a duplicate-detection step right after creation. */
  duplicate: boolean;
  /** Files an analyst would attach to a note on this kind of alert. */
  attachments: readonly Attachment[];
}

// The status an alert passes through on its way to each final status.
const PATHS: Record<string, readonly string[]> = {
  Open: [],
  'Under Investigation': ['Under Investigation'],
  Pending: ['Under Investigation', 'Pending'],
  Escalated: ['Under Investigation', 'Escalated'],
  Closed: ['Under Investigation', 'Closed'],
};

export interface Attachment {
  filename: string;
  mimetype: string;
  description: string | null;
}

class Trail {
  readonly audits: AuditEntry[] = [];
  private clockMs: number;

  constructor(
    private readonly faker: Faker,
    private readonly project: ProjectContext,
    private readonly sink: DocumentSink,
    public state: AlertState,
    createdMs: number,
  ) {
    this.clockMs = createdMs;
    this.audits.push({ timestamp: state.createdAt, action: 'create', author: state.createdBy, record: { ...state, notes: [...state.notes] } });
  }

  /**
   * Moves the clock on, applies the change built for that instant and records it. The change is
   * a function of the instant so that notes and files carry the same time as their audit entry.
   */
  step(action: AuditEntry['action'], author: string, change: (at: string, atMs: number) => Partial<AlertState>): void {
    this.clockMs += randInt(this.faker, 2 * MINUTE_MS, 30 * HOUR_MS);
    const at = isoAt(this.clockMs);
    this.state = { ...this.state, ...change(at, this.clockMs), updatedAt: at, updatedBy: author };
    this.audits.push({ timestamp: at, action, author, record: { ...this.state, notes: [...this.state.notes] } });
  }

  addNote(author: string, text: Target['noteTexts'][number]): void {
    this.step('update', author, (at) => {
      const note: Note = {
        id: randomUuid(this.faker),
        name: text.name,
        description: text.description,
        data: this.faker.number.float() < 0.5 ? null : { source: 'analyst', checklist: { identityReviewed: true, sourceOfFundsRequested: this.faker.datatype.boolean() } },
        cmsProjectId: this.project.id,
        createdAt: at,
        updatedAt: at,
        createdBy: author,
        updatedBy: author,
        documents: [],
      };
      return { notes: [...this.state.notes, note] };
    });
  }

  /** Attaches a file to the latest note; returns false when there is no note to attach to. */
  attach(author: string, attachments: readonly Attachment[]): boolean {
    const last = this.state.notes.at(-1);
    if (!last || attachments.length === 0) return false;
    const spec = pick(this.faker, attachments);
    this.step('attach', author, (at, atMs) => {
      const file = storedFile(this.faker, this.project, this.sink, { ...spec, createdMs: atMs, createdBy: author });
      const updated: Note = { ...last, documents: [...last.documents, file], updatedAt: at, updatedBy: author };
      return { notes: [...this.state.notes.slice(0, -1), updated] };
    });
    return true;
  }

  /** Removes the latest note's last file (uploaded by mistake). */
  detach(author: string): void {
    const last = this.state.notes.at(-1);
    if (!last || last.documents.length === 0) return;
    this.step('detach', author, (at) => {
      const updated: Note = { ...last, documents: last.documents.slice(0, -1), updatedAt: at, updatedBy: author };
      return { notes: [...this.state.notes.slice(0, -1), updated] };
    });
  }
}

/** Replays an alert from creation to its target state; returns the final state and its audit trail. */
export function replayAlert(faker: Faker, project: ProjectContext, sink: DocumentSink, initial: AlertState, createdMs: number, target: Target): { state: AlertState; audits: AuditEntry[] } {
  const trail = new Trail(faker, project, sink, initial, createdMs);
  if (target.duplicate) trail.step('duplicate', 'system:duplicate-detection', () => ({}));
  const path = PATHS[target.status] ?? [];
  const analyst = pickAnalyst(faker, project).email;
  const notes = [...target.noteTexts];
  if (path.length > 0 || faker.number.float() < 0.5) trail.step('update', analyst, () => (path.length > 0 ? { assignedTo: analyst, seen: true } : { seen: true }));
  if (initial.severity !== target.severity) trail.step('update', analyst, () => ({ severity: target.severity }));
  path.forEach((status, i) => {
    const final = i === path.length - 1;
    const text = notes.shift();
    if (text) {
      trail.addNote(analyst, text);
      if (faker.number.float() < 0.6 && trail.attach(analyst, target.attachments) && faker.number.float() < 0.15) trail.detach(analyst);
    }
    trail.step('update', analyst, () => (final ? { status, reason: target.reason } : { status }));
  });
  // Notes left over were written after the last status change (or on a still-open alert).
  for (const text of notes) {
    trail.addNote(analyst, text);
    if (faker.number.float() < 0.4) trail.attach(analyst, target.attachments);
  }
  if (path.length === 0 && target.reason !== null && trail.state.reason !== target.reason) trail.step('update', analyst, () => ({ reason: target.reason }));
  return { state: trail.state, audits: trail.audits };
}
