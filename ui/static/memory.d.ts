// memory.js is a browser script without exports; imported `with { type: 'file' }` it is its embedded path.
declare const path: string;
export default path;
