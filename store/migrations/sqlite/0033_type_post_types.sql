-- The WordPress post type a team's page type hands off as ('' for
-- page): articles as posts, products as WooCommerce's products.
ALTER TABLE type_colors ADD COLUMN post_type TEXT NOT NULL DEFAULT '';
