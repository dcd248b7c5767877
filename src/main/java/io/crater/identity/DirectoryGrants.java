package io.crater.identity;

import io.crater.platform.Actor;
import io.crater.policy.DirectorySync;
import io.smallrye.mutiny.Uni;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Team memberships as a directory sync sees and changes them. The account feature owns memberships and implements
 * it; identity, below it, only asks. Every membership carries who granted it: {@link DirectorySync#MANUAL} or the
 * directory's source ({@code ldap:<name>}).
 */
public interface DirectoryGrants {

    /** The team memberships of these users (users without any are left out), in the caller's session. */
    Uni<Map<Long, List<DirectorySync.Membership>>> teamMemberships(Collection<Long> userIds);

    /**
     * Applies the changes in the caller's transaction, each marked as granted by {@code source}: an addition to an
     * account that is not an active team account is skipped; removals and role changes touch only memberships
     * {@code source} granted. Returns how many rows changed per kind.
     */
    Uni<Map<DirectorySync.Kind, Integer>> apply(String source, List<DirectorySync.Change> changes, Actor actor);

    /**
     * Brings one user's memberships granted by {@code source} in line with the groups they are in now, as the
     * mappings say, in the caller's transaction: a directory at sign-in and sync, an OpenID provider at sign-in.
     */
    default Uni<Map<DirectorySync.Kind, Integer>> bringInLine(
            String source,
            List<DirectorySync.GroupMapping> mappings,
            long userId,
            String username,
            List<String> groups,
            Actor actor) {
        return teamMemberships(List.of(userId)).flatMap(have -> {
            DirectorySync.UserState state = new DirectorySync.UserState(
                    userId, username, true, false, groups, have.getOrDefault(userId, List.of()));
            List<DirectorySync.Change> changes =
                    DirectorySync.changes(source, state, DirectorySync.granted(mappings, groups));
            return changes.isEmpty()
                    ? Uni.createFrom().item(Map.<DirectorySync.Kind, Integer>of())
                    : apply(source, changes, actor);
        });
    }
}
