package io.crater.policy;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a directory sync changes, from the directory's state and the current memberships: users gone from the
 * directory are disabled, group mappings grant team memberships with a role, and memberships the directory granted
 * before but grants no more are removed. Memberships granted by hand are never touched, nor changed to another
 * role.
 */
public final class DirectorySync {

    /** Who granted a membership that was not granted by a directory. */
    public static final String MANUAL = "manual";

    private DirectorySync() {}

    /**
     * A group → account mapping: members of {@code group} (its DN or its cn, either case) get {@code role} in the
     * team account {@code account}.
     */
    public record GroupMapping(String group, String account, String role) {

        boolean matches(Collection<String> groups) {
            for (String g : groups) {
                if (g.equalsIgnoreCase(group) || cn(g).equalsIgnoreCase(group)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A membership a user has now: account slug, role, and who granted it ({@link #MANUAL} or a source). */
    public record Membership(String account, String role, String grantedBy) {}

    /**
     * A linked user as the sync sees them.
     *
     * @param present whether the directory still has the entry
     * @param groups the groups (DNs) the entry belongs to; empty when not present
     */
    public record UserState(
            long userId,
            String username,
            boolean present,
            boolean disabled,
            List<String> groups,
            List<Membership> memberships) {}

    /** One change to a membership. */
    public record Change(long userId, String username, Kind kind, String account, String role) {}

    /** What a change does. */
    public enum Kind {
        ADD,
        REMOVE,
        ROLE
    }

    /** The whole plan: users to disable and membership changes. */
    public record Plan(List<Long> disable, List<Change> changes) {

        public long count(Kind kind) {
            return changes.stream().filter(c -> c.kind() == kind).count();
        }
    }

    /** The accounts and roles the groups grant; {@code admin} wins when two mappings name the same account. */
    public static Map<String, String> granted(List<GroupMapping> mappings, Collection<String> groups) {
        Map<String, String> out = new LinkedHashMap<>();
        for (GroupMapping m : mappings) {
            if (m.matches(groups)) {
                out.merge(m.account(), m.role(), (a, b) -> "admin".equals(a) || "admin".equals(b) ? "admin" : a);
            }
        }
        return out;
    }

    /** The changes that bring these users' memberships granted by {@code source} in line with the directory. */
    public static Plan plan(String source, List<GroupMapping> mappings, List<UserState> users) {
        List<Long> disable = new ArrayList<>();
        List<Change> changes = new ArrayList<>();
        for (UserState u : users) {
            if (!u.present() && !u.disabled()) {
                disable.add(u.userId());
            }
            changes.addAll(changes(source, u, u.present() ? granted(mappings, u.groups()) : Map.of()));
        }
        return new Plan(List.copyOf(disable), List.copyOf(changes));
    }

    /** One user's changes towards {@code wanted} (account → role). */
    public static List<Change> changes(String source, UserState u, Map<String, String> wanted) {
        List<Change> out = new ArrayList<>();
        Map<String, Membership> have = new LinkedHashMap<>();
        u.memberships().forEach(m -> have.put(m.account(), m));
        wanted.forEach((account, role) -> {
            Membership m = have.get(account);
            if (m == null) {
                out.add(new Change(u.userId(), u.username(), Kind.ADD, account, role));
            } else if (source.equals(m.grantedBy()) && !role.equals(m.role())) {
                out.add(new Change(u.userId(), u.username(), Kind.ROLE, account, role));
            }
        });
        for (Membership m : u.memberships()) {
            if (source.equals(m.grantedBy()) && !wanted.containsKey(m.account())) {
                out.add(new Change(u.userId(), u.username(), Kind.REMOVE, m.account(), m.role()));
            }
        }
        return out;
    }

    /** The accounts the mappings name that are not among {@code known}, to report rather than apply. */
    public static List<String> unknownAccounts(List<GroupMapping> mappings, Set<String> known) {
        return mappings.stream()
                .map(GroupMapping::account)
                .filter(a -> !known.contains(a))
                .distinct()
                .sorted()
                .toList();
    }

    /** The value of the first RDN of a DN ({@code cn=gpu-admins,ou=groups,...} → {@code gpu-admins}). */
    static String cn(String dn) {
        int eq = dn.indexOf('=');
        if (eq < 0) {
            return dn;
        }
        StringBuilder value = new StringBuilder();
        for (int i = eq + 1; i < dn.length(); i++) {
            char c = dn.charAt(i);
            if (c == '\\' && i + 1 < dn.length()) {
                value.append(dn.charAt(++i));
            } else if (c == ',' || c == '+') {
                break;
            } else {
                value.append(c);
            }
        }
        return value.toString().trim();
    }
}
