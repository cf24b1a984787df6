export * from './quote-action.dto';
export * from './report-quote.dto';
export * from './submit-quote.dto';
