package io.crater.cluster;

import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;

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

    /**
     * The same, requeueing: in the same transaction each job moved gets a copy in its place in line (same spec,
     * account, owner and submission time, linked by its source job), which admission starts elsewhere; the copies'
     * public ids by the drained jobs'.
     */
    Uni<Map<String, String>> markDrainedAndRequeue(List<String> publicIds, String node, String by, String reason);

    /** After the commit: keeps what the jobs' pods wrote, then deletes their Volcano Jobs. Blocking. */
    void release(List<String> publicIds);
}
