import type { RefObject } from 'react'
import { Link } from 'react-router'
import { Dialog as DialogPrimitive } from 'radix-ui'
import { X } from 'lucide-react'
import { HomeLogoLink } from '#client/components/logo.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { NavLinks } from './nav-links.tsx'

/**
 * The slide-out panel of the mobile menu (SPEC 2 "Shared layout"), loaded on the first open so the
 * public pages do not ship Radix Dialog (docs/decisions/020-prerendered-public-pages.md). Radix closes
 * it on Escape and on overlay click, locks body scroll while it is open, and focus goes back to the
 * menu button when it closes.
 */
export default function MobileMenuSheet({
  open,
  onOpenChange,
  menuButton,
  signedIn,
  showCrown,
  authPending,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  menuButton: RefObject<HTMLButtonElement | null>
  signedIn: boolean
  showCrown: boolean
  authPending: boolean
}) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay
          data-testid="mobile-menu-overlay"
          className="fixed inset-0 z-50 bg-ink/40 backdrop-blur-[2px] data-[state=open]:animate-fade-in md:hidden"
        />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            // The menu button is not a Radix trigger (it is in the page before this module loads).
            event.preventDefault()
            menuButton.current?.focus()
          }}
          className="fixed inset-y-0 right-0 z-50 flex w-[min(20rem,85vw)] flex-col gap-6 overflow-y-auto bg-surface p-5 shadow-2xl focus:outline-none data-[state=open]:animate-sheet-in md:hidden"
        >
          <div className="flex items-center justify-between">
            <DialogPrimitive.Title className="sr-only">Menu</DialogPrimitive.Title>
            <HomeLogoLink />
            <DialogPrimitive.Close asChild>
              <Button variant="ghost" size="icon" aria-label="Close menu">
                <X aria-hidden className="size-5" />
              </Button>
            </DialogPrimitive.Close>
          </div>
          <nav aria-label="Mobile">
            <NavLinks
              signedIn={signedIn}
              showCrown={showCrown}
              className="flex flex-col gap-1"
              itemClassName="w-full px-3 py-3 text-base"
            />
          </nav>
          {!signedIn && !authPending && (
            <div className="mt-auto flex flex-col gap-3 border-t border-line pt-6">
              <Button asChild variant="outline" size="lg">
                <Link to="/login">Log In</Link>
              </Button>
              <Button asChild size="lg">
                <Link to="/login">Sign Up</Link>
              </Button>
            </div>
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  )
}
