import { insertOnce } from '@feedback/kit-stores';
import type { Collection, Db } from 'mongodb';
import type { CsvImport } from '../../domain/directory-binding.js';
import type { CsvImportLog } from '../../ports.js';
import { boundFile, boundFileDoc, type BoundFileDoc } from './bound-file.doc.js';

/** The outcome and counts are stored under the domain's names; the rest in the documents' snake case. */
interface CsvImportDoc extends BoundFileDoc, Pick<CsvImport, 'outcome' | 'reason' | 'rows' | 'accepted' | 'rejected' | 'superseded'> {
  /** Absent on records written before the file entries showed the refused rows. */
  errors?: CsvImport['errors'];
  /** The file id: one record per processed file. */
  _id: string;
  sharing_id: string | null;
  created_at: Date;
}

export class MongoCsvImportLog implements CsvImportLog {
  private readonly docs: Collection<CsvImportDoc>;

  constructor(db: Db) {
    this.docs = db.collection<CsvImportDoc>('csv_imports');
  }

  async record(i: CsvImport): Promise<void> {
    await insertOnce<CsvImportDoc>(this.docs, {
      _id: i.fileId,
      ...boundFileDoc(i),
      sharing_id: i.sharingId,
      outcome: i.outcome,
      reason: i.reason,
      rows: i.rows,
      accepted: i.accepted,
      rejected: i.rejected,
      errors: i.errors,
      superseded: i.superseded,
      created_at: i.createdAt,
    });
  }

  async findByFile(fileId: string): Promise<CsvImport | null> {
    const d = await this.docs.findOne({ _id: fileId });
    return d
      ? {
          fileId: d._id,
          ...boundFile(d),
          sharingId: d.sharing_id,
          outcome: d.outcome,
          reason: d.reason,
          rows: d.rows,
          accepted: d.accepted,
          rejected: d.rejected,
          errors: d.errors ?? [],
          superseded: d.superseded,
          createdAt: d.created_at,
        }
      : null;
  }
}
