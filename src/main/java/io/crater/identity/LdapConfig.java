package io.crater.identity;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Sign-in through an LDAP directory (OpenLDAP, Active Directory, FreeIPA): bind and search, or a direct bind with
 * a DN pattern. Off by default; docs/identity.md describes every key with examples.
 */
@ConfigMapping(prefix = "crater.ldap")
public interface LdapConfig {

    /** Whether sign-in tries the directory for users who are not local. */
    @WithDefault("false")
    boolean enabled();

    /**
     * The directory's short name: users link to it as {@code ldap:<name>} and the memberships it grants carry that
     * mark.
     */
    @WithDefault("ldap")
    String name();

    /** Where the directory is: {@code ldap://host:389} or {@code ldaps://host:636}. */
    Optional<String> url();

    /** Upgrade an {@code ldap://} connection with StartTLS before binding. */
    @WithDefault("false")
    boolean startTls();

    /**
     * A PEM file of the CA certificates to trust for {@code ldaps://} and StartTLS; without it the JDK's default
     * trust store is used.
     */
    Optional<String> caFile();

    /** How long to wait for the TCP connection. */
    @WithDefault("5s")
    Duration connectTimeout();

    /** How long to wait for an answer to any request. */
    @WithDefault("10s")
    Duration readTimeout();

    /** The service account's DN that searches for users (bind and search); unset: anonymous search. */
    Optional<String> bindDn();

    /** The service account's password. Never logged, never shown. */
    Optional<String> bindPassword();

    /**
     * A direct-bind DN pattern, {@code {0}} standing for the escaped username (e.g.
     * {@code uid={0},ou=people,dc=example,dc=org}); when set, sign-in binds as that DN without a search.
     */
    Optional<String> userDnPattern();

    /** Where users are searched for. */
    Optional<String> userBaseDn();

    /** The filter that finds a user, {@code {0}} standing for the escaped username. */
    @WithDefault("(&(objectClass=posixAccount)(uid={0}))")
    String userFilter();

    /** Attributes a user entry maps through. */
    Attributes attributes();

    /** Where groups are searched for; unset: group mappings are not applied. */
    Optional<String> groupBaseDn();

    /**
     * The filter that finds a user's groups: {@code {0}} stands for the user's DN, {@code {1}} for the username
     * ({@code memberUid} of a posixGroup).
     */
    @WithDefault("(|(&(objectClass=groupOfNames)(member={0}))(&(objectClass=posixGroup)(memberUid={1})))")
    String groupFilter();

    /**
     * Group → account mappings, by a name of your choosing: {@code crater.ldap.groups.<name>.group} (a group's DN
     * or cn), {@code .account} (a team account's slug), {@code .role} ({@code member} or {@code admin}).
     */
    Map<String, GroupMapping> groups();

    /**
     * Link a local user to the directory entry of the same username at its first directory sign-in; by default
     * that sign-in is refused (code {@code LocalUserExists}), so a directory account never silently takes over a
     * local one.
     */
    @WithDefault("false")
    boolean linkExisting();

    /** How often the leader syncs linked users with the directory; 0 turns the periodic sync off. */
    @WithDefault("15m")
    Duration syncInterval();

    /** Attribute names. */
    interface Attributes {

        /** The sign-in name. */
        @WithDefault("uid")
        String username();

        /** The person's name. */
        @WithDefault("cn")
        String displayName();

        /** The e-mail address. */
        @WithDefault("mail")
        String email();

        /** The POSIX user id, used as the user's UID in pods and files. */
        @WithDefault("uidNumber")
        String uidNumber();

        /** The POSIX primary group id, used as the GID of the user's personal jobs. */
        @WithDefault("gidNumber")
        String gidNumber();

        /**
         * Active Directory: without a {@code uidNumber}, take the RID of {@code objectSid} (and of
         * {@code primaryGroupID} for the GID) plus {@link #sidOffset()}.
         */
        @WithDefault("false")
        boolean idsFromSid();

        /** Added to a RID to make a UID or GID. */
        @WithDefault("0")
        long sidOffset();
    }

    /** One group mapping. */
    interface GroupMapping {

        /** The group's DN or cn. */
        String group();

        /** The team account's slug. */
        String account();

        /** {@code member} or {@code admin}. */
        @WithDefault("member")
        String role();
    }
}
