// Values of the CRD's markers that ./meta states too: the schemas of apis/v1 default and validate
// with them, and ./meta exports them (keys.ts, quantity.ts). They sit below both so that apis/v1
// never imports ./meta.

/** The node pool used when none is set on the spec, the pod or its labels. */
export const DEFAULT_NODE_POOL = "default";

/**
 * The quantity pattern controller-gen puts on `resource.Quantity` fields of the CRDs.
 *
 * It is not the parser's grammar: it refuses some text Go parses (`Gi`, `.`, surrounding
 * spaces) and admits some Go refuses (`1e1.5`), so validate with both, as the apiserver and the
 * operator together do.
 */
export const QUANTITY_PATTERN =
  "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";
