export { readStackFile, type StackFile } from './stack-file.js';
