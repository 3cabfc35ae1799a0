// Validates Kubernetes objects offline against the schemas npm's kubernetes-models bundles (its `validate()`), for
// ManifestSchemaTest: the objects each kustomize overlay renders, as a JSON array in a file.
//
//   node k8s-validate.mjs objects.json
//
// Prints one line per object ("ok Kind/name" or "invalid Kind/name: why") and exits 1 if any is invalid or of a kind
// no bundled model knows (an unknown kind is not a pass).
import { readFileSync } from "node:fs";

const objects = JSON.parse(readFileSync(process.argv[2], "utf8"));
let failed = 0;
for (const object of objects) {
  const id = `${object.kind}/${object.metadata?.name}`;
  try {
    const Model = await modelOf(object.apiVersion, object.kind);
    const model = new Model(object);
    model.validate();
    // validate() checks the schema; an apiVersion/kind the model rewrote would slip past it
    if (model.apiVersion !== object.apiVersion || model.kind !== object.kind) throw new Error("apiVersion/kind mismatch");
    console.log(`ok ${id}`);
  } catch (e) {
    failed++;
    console.log(`invalid ${id}: ${e.message.replace(/\s+/g, " ")}`);
  }
}
process.exit(failed ? 1 : 0);

async function modelOf(apiVersion, kind) {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  // Core and built-in groups only: a ServiceMonitor (monitoring.coreos.com) would need
  // @kubernetes-models/prometheus-operator back, with the ServiceMonitor that uses it.
  const module = group ? `kubernetes-models/${group}/${version}` : `kubernetes-models/${version}`;
  const models = await import(module);
  if (!models[kind]) throw new Error(`no model for ${apiVersion} ${kind}`);
  return models[kind];
}
