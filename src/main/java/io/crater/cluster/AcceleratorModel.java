package io.crater.cluster;

import java.util.Map;

/**
 * An entry of the accelerator catalogue: a resource name plus the node label that tells the model apart, with
 * the display name and vendor an administrator chose; a restricted model needs an approved access request.
 */
public record AcceleratorModel(
        String key,
        String resource,
        String labelKey,
        String labelValue,
        String displayName,
        String vendor,
        boolean restricted) {

    public boolean matches(Map<String, String> nodeLabels) {
        return nodeLabels != null && labelValue.equals(nodeLabels.get(labelKey));
    }
}
