// The venue's dataset service (issue 15), built on the venue's own database connection the
// first time something asks for it, one per connection. Kept out of venue.ts so the service
// stays an add-on: nothing of the trading venue depends on it.
import type { DatabaseSync } from 'node:sqlite';
import { DatasetService } from './data/dataset-service.ts';
import { DatasetsRepo } from './store/datasets-repo.ts';

const services = new WeakMap<DatabaseSync, DatasetService>();

export function datasetServiceOf(db: DatabaseSync): DatasetService {
  let s = services.get(db);
  if (s === undefined) services.set(db, (s = new DatasetService(new DatasetsRepo(db))));
  return s;
}
