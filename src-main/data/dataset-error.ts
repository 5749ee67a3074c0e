// What the dataset service refuses: a dataset or row that is not there ('not_found'), a
// request or stored value it cannot serve ('invalid'), or a dataset a running replay reads
// ('in_use', for a delete). Routes map the kind to their codes.
export class DatasetError extends Error {
  readonly kind: 'not_found' | 'invalid' | 'in_use';
  constructor(kind: 'not_found' | 'invalid' | 'in_use', message: string) {
    super(message);
    this.name = 'DatasetError';
    this.kind = kind;
  }
}
