package io.crater.sim.cluster;

import java.util.Set;

/**
 * The labels and values of the objects Crater creates that the simulated cluster reads, as the simulator's own
 * names: it plays a cluster, so it knows them as a cluster would (from the objects), not from Crater's code.
 */
public final class SimLabels {

    /** The label holding the kind of job a pod belongs to. */
    public static final String KIND = "crater.io/kind";

    /** The kinds a person works in interactively (a notebook, an IDE, TensorBoard): left alone, their accelerators idle. */
    public static final Set<String> INTERACTIVE_KINDS = Set.of("jupyter", "webide", "tensorboard");

    /** The kind of a download's job: the simulator plays its hub client ({@link SimDownloads}). */
    public static final String DOWNLOAD_KIND = "download";

    /** The label of a node naming its group in the fleet. */
    public static final String NODE_GROUP = "crater.io/node-group";

    private SimLabels() {}
}
