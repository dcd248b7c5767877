package io.crater;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.eclipse.microprofile.config.ConfigProvider;

/** Plain JDBC into the test application's database, for checking what a flow left behind. */
public final class Db {

    private Db() {}

    public static Connection connection() throws Exception {
        var config = ConfigProvider.getConfig();
        return DriverManager.getConnection(
                config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getOptionalValue("quarkus.datasource.password", String.class)
                        .orElse(""));
    }

    /** The first column of the first row of a query, as a number. */
    public static long count(String sql) throws Exception {
        try (Connection c = connection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
