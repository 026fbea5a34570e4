// The supervisor map's cluster worker: keeps the points and their indexes off the main thread, so building the
// clusters of 100,000 points never freezes the page. All it does is in cluster-engine.ts.
import { ClusterEngine, handleRequest, warmUp, type WorkerRequest } from './cluster-engine';

// This file runs only as a dedicated worker (ClusterClient creates it with new Worker), never in a window.
const scope = self as unknown as DedicatedWorkerGlobalScope;
const engine = new ClusterEngine();

scope.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const answer = handleRequest(engine, event.data);
  if (answer !== null) scope.postMessage(answer.reply, answer.transfer);
};

// Messages that come meanwhile wait for it (a project's points take the server longer than this to send).
warmUp();
