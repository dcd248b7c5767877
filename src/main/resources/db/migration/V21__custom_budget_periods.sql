-- A budget's period may be a custom number of days (1 to 366), one period after another from the day it was set.
ALTER TABLE budgets DROP CONSTRAINT budgets_period_check;
ALTER TABLE budgets ADD CONSTRAINT budgets_period_check CHECK (period IN ('month', 'week', 'custom'));
ALTER TABLE budgets ADD COLUMN period_days INTEGER;
ALTER TABLE budgets ADD CONSTRAINT budgets_period_days_check
    CHECK ((period = 'custom') = (period_days IS NOT NULL) AND (period_days IS NULL OR period_days BETWEEN 1 AND 366));
