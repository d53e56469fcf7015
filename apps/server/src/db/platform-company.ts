/**
 * Rows of no tenant (a failed sign-in with an e-mail no user has, mail sent without a company) belong
 * to the platform company (migration 0797): `company_id` is NOT NULL in every tenant table. The SQL of
 * a `company_id` value given as `param` (`$1`, ...), the platform company's id when it is NULL.
 */
export const companyOrPlatform = (param: string): string => `COALESCE(${param}, (SELECT id FROM companies WHERE is_platform))`;
