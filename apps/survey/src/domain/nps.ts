// The NPS rule is kit-core's, so that every service scores alike (messaging's campaign report too).
export { countScore, emptyTally, npsScore, type NpsTally } from '@feedback/kit-core';
