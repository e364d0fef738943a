import { lazy, Suspense, useRef, useState } from 'react'
import { useLocation } from 'react-router'
import { Menu } from 'lucide-react'
import { Button } from '#client/components/ui/button.tsx'
import { useIsClient } from '#client/lib/use-is-client.ts'

const loadSheet = () => import('./mobile-menu-sheet.tsx')
const MobileMenuSheet = lazy(loadSheet)

/**
 * The menu button for small screens and, once it is first used, the slide-out panel (SPEC 2 "Shared
 * layout"). The menu is only open for the path it was opened on, so it closes on route change.
 * The panel's code starts loading as soon as the button is pointed at or focused.
 */
export function MobileMenu({ signedIn, showCrown, authPending }: { signedIn: boolean; showCrown: boolean; authPending: boolean }) {
  const { pathname } = useLocation()
  const [openOn, setOpenOn] = useState<string | null>(null)
  const [used, setUsed] = useState(false)
  const menuButton = useRef<HTMLButtonElement>(null)
  const open = openOn === pathname
  // Prerendered pages show the button before the app runs (decision 020): until then it is unavailable.
  const starting = !useIsClient()

  return (
    <>
      <Button
        ref={menuButton}
        variant="ghost"
        size="icon"
        className="md:hidden"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-disabled={starting || undefined}
        onPointerEnter={() => void loadSheet()}
        onFocus={() => void loadSheet()}
        onClick={() => {
          setUsed(true)
          setOpenOn(pathname)
        }}
      >
        <Menu aria-hidden className="size-5" />
      </Button>
      {used && (
        <Suspense fallback={null}>
          <MobileMenuSheet
            open={open}
            onOpenChange={(next) => setOpenOn(next ? pathname : null)}
            menuButton={menuButton}
            signedIn={signedIn}
            showCrown={showCrown}
            authPending={authPending}
          />
        </Suspense>
      )}
    </>
  )
}
