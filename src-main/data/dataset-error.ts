// What the dataset service refuses: a dataset or row that is not there ('not_found'), or a
// request or stored value it cannot serve ('invalid'). Routes map the kind to their codes.
export class DatasetError extends Error {
  readonly kind: 'not_found' | 'invalid';
  constructor(kind: 'not_found' | 'invalid', message: string) {
    super(message);
    this.name = 'DatasetError';
    this.kind = kind;
  }
}
