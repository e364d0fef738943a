import { PRODUCT_NAME } from '#shared/product.ts'

/**
 * Per-page <title> and description, rendered with React 19's native head tags (React hoists them
 * into <head> and removes them when the page unmounts).
 */
export function PageMeta({ title, description, robots }: { title?: string; description: string; robots?: string }) {
  const fullTitle = title ? `${title} | ${PRODUCT_NAME}` : `${PRODUCT_NAME}: keep cold outreach out of your inbox`
  return (
    <>
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      {robots && <meta name="robots" content={robots} />}
    </>
  )
}
