export * from './quote-action.dto';
export * from './report-quote.dto';
export * from './submit-quote.dto';
export * from './quote-rating.dto';
