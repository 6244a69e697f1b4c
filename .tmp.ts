import { extractEntities } from './src/bridge/builtin/builtin-extractor.js';
console.log(extractEntities('On March 3rd, 2024 Alice Johnson met Bob Smith from Acme Corp and Google in Paris, France. Dr. Jane Doe of Microsoft visited New York. Mr. T. Smith Jr. went to the U.S.'));
const big = 'Alice Johnson met Bob at Google in Paris on Monday and emailed bob@x.io about https://x.io/a. '.repeat(1100).slice(0, 100000);
let t0 = Date.now(); extractEntities(big); console.log('100k chars ms', Date.now() - t0);
