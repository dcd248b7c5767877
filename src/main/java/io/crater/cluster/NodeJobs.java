package io.crater.cluster;

import io.smallrye.mutiny.Uni;
import java.util.List;

/**
 * What draining a node needs from the jobs feature, which sits above this one: the jobs feature provides the bean,
 * so cluster never depends on job.
 */
public interface NodeJobs {

    /**
     * In its own transaction: moves each of the jobs that is admitted, pending or running to {@code Stopping} with the
     * reason {@code NodeDrained} (naming the node, the platform admin {@code by} and the reason) and tells its owner;
     * the public ids of those moved.
     */
    Uni<List<String>> markDrained(List<String> publicIds, String node, String by, String reason);

    /** After the commit: keeps what the jobs' pods wrote, then deletes their Volcano Jobs. Blocking. */
    void release(List<String> publicIds);
}
