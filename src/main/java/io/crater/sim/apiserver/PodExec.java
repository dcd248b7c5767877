package io.crater.sim.apiserver;

import com.fasterxml.jackson.databind.JsonNode;

/** Where {@code pods/{name}/exec} lands: a shell in a running pod's container, provided by what plays the pods. */
@FunctionalInterface
public interface PodExec {

    /** A shell in {@code container} (null: the first) of a running pod, as stored. */
    ExecShell shell(JsonNode pod, String container);
}
