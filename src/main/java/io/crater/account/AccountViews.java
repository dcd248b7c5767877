package io.crater.account;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Request and response records of the accounts API. */
public final class AccountViews {

    private AccountViews() {}

    /** An account in a list. */
    public record AccountSummary(
            String slug, String name, String kind, int gid, Instant expiresAt, Instant archivedAt, long members) {}

    /** One resource of an account's quota; quantities as strings and in milli-units. */
    public record QuotaLineView(
            String resource,
            String displayName,
            String guaranteed,
            String max,
            String used,
            String granted,
            String borrowed,
            long guaranteedMilli,
            long maxMilli,
            long usedMilli,
            long grantedMilli,
            long borrowedMilli) {}

    /** An account with the caller's role in it and its quota. */
    public record AccountDetail(
            String slug,
            String name,
            String kind,
            int gid,
            Instant expiresAt,
            Instant archivedAt,
            String myRole,
            List<QuotaLineView> quota) {}

    /** Create an account. */
    public record CreateAccount(String slug, String name, Instant expiresAt, String admin) {}

    /** Change an account's name or expiry ({@code clearExpiry} removes it). */
    public record UpdateAccount(String name, Instant expiresAt, Boolean clearExpiry) {}

    /** One quota entry to set; quantities as Kubernetes quantity strings. */
    public record QuotaItem(String resource, String guaranteed, String max) {}

    /** The whole quota of an account. */
    public record QuotaUpdate(List<QuotaItem> items) {}

    /** Limits of a member: per resource (quantity strings), running jobs, interactive sessions. */
    public record Limits(Map<String, String> resources, Integer maxRunningJobs, Integer maxInteractiveSessions) {}

    /**
     * A member of an account with their own limits and the limits in effect, and who granted the membership:
     * {@code manual}, or {@code ldap:<name>} when a directory group mapping did (docs/identity.md).
     */
    public record Member(
            String username,
            String displayName,
            String role,
            String fileAccess,
            Limits limits,
            Limits effectiveLimits,
            String grantedBy) {}

    /** Add or change a member. */
    public record MemberUpdate(String role, String fileAccess) {}
}
