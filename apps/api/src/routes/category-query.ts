import { Type } from "@sinclair/typebox";

/** Medusa's tree options of a category read: every descendant nested, every ancestor up to the root. */
export const CategoryTree = {
  include_descendants_tree: Type.Optional(Type.Boolean()),
  include_ancestors_tree: Type.Optional(Type.Boolean()),
};

interface CategoryListQuery {
  limit: number;
  offset: number;
  order?: string;
  fields?: string;
  include_descendants_tree?: boolean;
  include_ancestors_tree?: boolean;
  parent_category_id?: string[];
}

/**
 * A category list's query split as the category service reads it (Admin and Store): the filters
 * (`parent_category_id=null` naming the top level), the page, the tree options and `fields`.
 */
export function splitCategoryQuery<Q extends CategoryListQuery>(query: Q) {
  const {
    limit,
    offset,
    order,
    fields,
    include_descendants_tree,
    include_ancestors_tree,
    parent_category_id,
    ...rest
  } = query;
  return {
    filters: { ...rest, parent_category_id: parent_category_id?.map((p) => (p === "null" ? null : p)) },
    page: { limit, offset, order },
    tree: { include_descendants_tree, include_ancestors_tree },
    fields,
  };
}
