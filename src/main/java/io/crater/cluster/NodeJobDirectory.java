package io.crater.cluster;

import io.smallrye.mutiny.Uni;
import java.util.Collection;
import java.util.List;

/**
 * What the node detail needs from the jobs feature, which sits above this one: the jobs feature provides the bean,
 * so cluster never depends on job.
 */
public interface NodeJobDirectory {

    /** A job as the node detail names it. */
    record Named(String id, String name, String state, String owner, String account) {}

    /** The jobs with these public ids (unknown ones are left out), with their owners' usernames and accounts' slugs. */
    Uni<List<Named>> named(Collection<String> publicIds);
}
