/**
 * Exports that no example, demo, guide or Go → TS map row uses yet, per entry point: each is to be
 * shown where a user meets it, or removed from its entry point. This list may only shrink
 * (test/surface-use.test.ts fails on a name added here or left here once used).
 */
export const NOT_YET_SHOWN: Readonly<Record<string, readonly string[]>> = {
  "./meta": [
    "AGENT_CONTAINER_NAME",
    "CocoonSetLike",
    "CocoonSetSpecLike",
    "EnvFromLike",
    "HostnameSelectorTerm",
    "KubeTime",
    "LivePodLike",
    "Loose",
    "PLACEHOLDER_IMAGE",
    "ParsedQuantity",
    "PodEnvFrom",
    "PodResources",
    "PodToleration",
    "PreferredHostnameAffinity",
    "QUANTITY_PATTERN",
    "QuantityFormat",
    "RequiredHostnameAffinity",
    "ResourcesLike",
    "ToolboxLike",
    "VMOptionsLike",
    "clearHibernatedOnNode",
    "compareResourceVersions",
    "isQuantity",
    "marshalGoJSON",
    "parseQuantity",
    "requiredHostnameAffinity",
    "stashHibernatedOnNode",
    "toolboxPodName",
  ],
};
